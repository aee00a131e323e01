// Package worktree checks out a git revision in a temporary directory
// without touching the user's working tree, index or stash, and removes it
// even when interrupted.
//
// A checkout is a detached worktree of the user's repository ("git worktree
// add --detach"), so it shares the object store and costs no clone. Hooks
// are disabled for it, and an inherited $GIT_INDEX_FILE (set when a git hook
// runs the program) is dropped so that git writes the new worktree's own
// index rather than the user's.
//
// Two details make the cleanup reliable. Cancelling the context does not
// kill "git worktree add": git killed while adding a worktree leaves it
// registered and locked, so [Repo.Add] lets the checkout finish, removes
// it, and then reports the cancellation. And [Tree.Remove] runs with its
// own deadline whatever the state of the caller's context, and also
// unregisters a worktree left locked by an earlier process that was
// killed.
package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Timeouts of the git commands that must complete even when the caller's
// context is cancelled.
const (
	addTimeout    = 5 * time.Minute
	removeTimeout = 30 * time.Second
)

// A Repo is the git repository containing a directory.
type Repo struct {
	dir    string // the directory given to Open, absolute, symbolic links resolved
	top    string // top directory of the working tree containing dir, symbolic links resolved
	prefix string // dir relative to top, slash-separated; "" at the top
}

// Open returns the repository containing dir.
func Open(ctx context.Context, dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, err
	}
	top, err := run(ctx, abs, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git repository: %w", abs, err)
	}
	if top, err = filepath.EvalSymlinks(top); err != nil {
		return nil, err
	}
	prefix, err := run(ctx, abs, nil, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	return &Repo{dir: abs, top: top, prefix: strings.TrimSuffix(prefix, "/")}, nil
}

// Dir returns the directory given to Open, made absolute with symbolic
// links resolved.
func (r *Repo) Dir() string { return r.dir }

// Top returns the top directory of the working tree containing Dir, with
// symbolic links resolved.
func (r *Repo) Top() string { return r.top }

// Prefix returns the path of Dir relative to Top, slash-separated; it is
// "" when Dir is Top.
func (r *Repo) Prefix() string { return r.prefix }

// Resolve returns the full hash of the commit rev names.
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("invalid git revision %q", rev)
	}
	commit, err := run(ctx, r.top, nil, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("unknown git revision %q in %s", rev, r.top)
	}
	return commit, nil
}

// Label returns rev for display, followed by the abbreviated commit it
// resolved to when rev is not already a prefix of it:
// "HEAD~1 (0123456789ab)".
func Label(rev, commit string) string {
	if strings.HasPrefix(commit, rev) {
		return rev
	}
	return rev + " (" + commit[:min(len(commit), 12)] + ")"
}

// Git runs git with args in the repository's top directory and returns its
// standard output with surrounding white space removed. Its error gives
// the most relevant line of git's standard error.
func (r *Repo) Git(ctx context.Context, args ...string) (string, error) {
	return run(ctx, r.top, nil, args...)
}

// A Tree is a detached checkout of a commit in a temporary directory.
type Tree struct {
	repo   *Repo
	tmp    string // the temporary directory holding the checkout
	top    string // the checkout
	commit string
}

// Add checks out commit (preferably a full hash, as returned by Resolve)
// in a new detached worktree in a new temporary directory. The caller must
// call Remove on the returned Tree when done with it; on error, nothing is
// left behind.
//
// The context's cancellation does not interrupt the checkout, since git
// killed while adding a worktree leaves it registered and locked: Add
// waits for it to complete (at most 5 minutes), removes it and returns
// the context's error.
func (r *Repo) Add(ctx context.Context, commit string) (_ *Tree, err error) {
	if commit == "" || strings.HasPrefix(commit, "-") {
		return nil, fmt.Errorf("invalid git revision %q", commit)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "goadvise-worktree-")
	if err != nil {
		return nil, err
	}
	// The go command and the compiler report files with symbolic links
	// resolved; so must the checkout's path be for callers to relate
	// them.
	resolved, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	name := filepath.Base(r.top)
	if name == "" || name == "." || name == string(filepath.Separator) {
		name = "src"
	}
	t := &Tree{repo: r, tmp: resolved, top: filepath.Join(resolved, name), commit: commit}
	defer func() {
		if err != nil {
			t.Remove()
		}
	}()
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), addTimeout)
	defer cancel()
	_, err = run(actx, r.top, checkoutEnv(),
		"-c", "core.hooksPath="+os.DevNull, "-c", "core.fsmonitor=false",
		"worktree", "add", "--detach", "--quiet", t.top, commit)
	if err != nil {
		return nil, fmt.Errorf("checking out %s: %w", commit, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

// Top returns the top directory of the checkout.
func (t *Tree) Top() string { return t.top }

// Dir returns the directory of the checkout corresponding to the
// repository's Dir.
func (t *Tree) Dir() string { return filepath.Join(t.top, filepath.FromSlash(t.repo.prefix)) }

// Commit returns the commit checked out.
func (t *Tree) Commit() string { return t.commit }

// Remove removes the checkout, its temporary directory and its
// registration in the repository. It runs with its own deadline, so that
// it can be deferred by code whose context may be cancelled, and calling
// it again does nothing. A worktree that stays registered (git failed) is
// reported as an error.
func (t *Tree) Remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), removeTimeout)
	defer cancel()
	return remove(ctx, t.repo.top, t.top, t.tmp)
}

// remove removes the worktree at path, registered in the repository whose
// top directory is top, and the directory tmp containing it.
func remove(ctx context.Context, top, path, tmp string) error {
	env := checkoutEnv()
	_, rmErr := run(ctx, top, env, "worktree", "remove", "--force", "--force", path)
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("removing the checkout: %w", err)
	}
	registered, err := isRegistered(ctx, top, env, path)
	if err != nil || !registered {
		return err
	}
	// Older versions of git do not remove a locked worktree whose
	// directory is gone (the state of a checkout killed early), and
	// prune keeps locked worktrees. Prune is the last resort, as it
	// also prunes the user's other worktrees whose directory is gone.
	run(ctx, top, env, "worktree", "unlock", path)
	run(ctx, top, env, "worktree", "prune")
	if registered, err = isRegistered(ctx, top, env, path); err != nil {
		return err
	}
	if registered {
		if rmErr == nil {
			rmErr = errors.New("still registered")
		}
		return fmt.Errorf("removing worktree %s of %s: %w", path, top, rmErr)
	}
	return nil
}

// isRegistered reports whether path is a worktree of the repository whose
// top directory is top.
func isRegistered(ctx context.Context, top string, env []string, path string) (bool, error) {
	list, err := run(ctx, top, env, "worktree", "list", "--porcelain")
	if err != nil {
		return false, fmt.Errorf("listing the worktrees of %s: %w", top, err)
	}
	for line := range strings.Lines(list) {
		if p, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "worktree "); ok && filepath.Clean(p) == path {
			return true, nil
		}
	}
	return false, nil
}

// checkoutEnv returns the environment of the git commands that write a
// temporary worktree: the process's, without $GIT_INDEX_FILE, which git
// sets when it runs a hook and which would make "git worktree add" write
// the checkout's index over the user's.
func checkoutEnv() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GIT_INDEX_FILE=")
	})
}

// run runs git with args in dir and environment env (nil for the
// process's) and returns its trimmed standard output.
func run(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	out, err := runRaw(ctx, dir, env, args...)
	return strings.TrimSpace(string(out)), err
}

// runRaw is run without the trimming of the output.
func runRaw(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := gitMessage(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git %s: %s", subcommand(args), msg)
		}
		return nil, fmt.Errorf("git %s: %w", subcommand(args), err)
	}
	return out, nil
}

// subcommand returns the git subcommand in args, skipping "-c name=value"
// options.
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		if args[i] == "-c" {
			i++
			continue
		}
		return args[i]
	}
	return ""
}

// gitMessage returns the line of git's standard error that explains a
// failure: the first "fatal:" or "error:" line, else the first non-empty
// line.
func gitMessage(stderr string) string {
	first := ""
	for line := range strings.Lines(stderr) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "fatal: ") || strings.HasPrefix(line, "error: ") {
			return line
		}
		if first == "" {
			first = line
		}
	}
	return first
}

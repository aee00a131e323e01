package inner

// Point is a comparable struct of another package.
type Point struct{ X, Y int }

package byvalue

// Article is article, for tests.
var Article = article

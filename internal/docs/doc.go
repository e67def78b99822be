// Package docs holds the tests that keep the repository's documents true:
// every path README.md, CONTRIBUTING.md and web/README.md name exists, the
// README's package table lists every package, and web/README.md's table
// every source of the report app. It has no code of its own.
package docs

// Package docs holds no code: it is the home of dsol's documentation (the
// rules, the protocol, operations, the solvers, performance, fair play and the
// web client) and of the tests that keep it whole:
//
//   - every relative link and image of README.md, web/README.md and docs/*.md
//     names a file of the repository, and every #fragment a heading of the
//     linked page;
//   - README.md stays a short read (at most MaxReadmeLines lines).
package docs

// MaxReadmeLines bounds README.md: a newcomer reads it in five minutes, and
// the rest lives in docs/.
const MaxReadmeLines = 250

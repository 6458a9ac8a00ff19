// Package web holds the browser client: static HTML, CSS and ES modules,
// embedded into the server binary and served at the site root.
package web

import (
	"embed"
	"io/fs"
)

//go:embed index.html favicon.svg css/*.css js/*.js js/i18n/*.js js/solo/*.js js/race/*.js
var files embed.FS

// FS returns the client's files; its root is what is served at "/".
func FS() fs.FS { return files }

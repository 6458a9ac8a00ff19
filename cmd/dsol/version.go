package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"dsol/internal/cli"
)

// version is the release of this build, and commit its revision when the
// build has no VCS data of its own (a build without .git, as in a container),
// both set at link time:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=$(git rev-parse HEAD)" ./cmd/dsol
var (
	version = "dev"
	commit  = ""
)

// build tells which build is running: dsol version prints it and
// dsol_build_info carries it.
type build struct {
	version   string // main.version, else the module's version when go install set one
	commit    string // vcs.revision, with "-modified" when the tree had changes; else main.commit, else "unknown"
	goVersion string
}

// readBuild reads the build from main.version and runtime/debug.ReadBuildInfo.
func readBuild() build {
	b := build{version: version, commit: commit, goVersion: runtime.Version()}
	if b.commit == "" {
		b.commit = "unknown"
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if info.GoVersion != "" {
		b.goVersion = info.GoVersion
	}
	if b.version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		b.version = info.Main.Version
	}
	var rev string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" {
		b.commit = rev
		if modified {
			b.commit += "-modified"
		}
	}
	return b
}

// runVersion is dsol version: the version, the commit and the Go version.
func runVersion(args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return cli.Usagef("version takes no arguments (got %q)", args[0])
	}
	b := readBuild()
	fmt.Fprintf(stdout, "dsol %s\ncommit %s\n%s\n", b.version, b.commit, b.goVersion)
	return nil
}

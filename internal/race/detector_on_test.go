//go:build race

package race

const raceDetector = true

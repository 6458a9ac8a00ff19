//go:build race

package winnable

const raceDetector = true

//go:build race

package analysis

// raceEnabled: the race detector changes what the runtime allocates
// (sync.Pool drops items at random), so allocation ceilings are not checked.
const raceEnabled = true

// Package browsertests drives the packaged report in headless Chromium
// (chromedp): from file:// and through `trtperf serve`'s handler, against
// the corpus, synthetic engines up to 10^5 layers and a hostile fixture.
// The tests skip with a message when no Chromium is installed; CI installs
// Debian's chromium. Set TRTPERF_ARTIFACTS to keep screenshots.
package browsertests

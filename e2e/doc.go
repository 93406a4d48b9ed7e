// Package e2e holds the browser tests: the real dashboard on a real HTTP server
// with a real database, driven through Debian's chromium (its headless build,
// chromium-headless-shell) by chromedp.
package e2e

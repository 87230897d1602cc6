package main

// showHTML writes s as one self-contained HTML page to the file out.
func (c *cli) showHTML(s *shown, out string) int {
	return c.fail(exitBadUsage, "show: --html is not built yet")
}

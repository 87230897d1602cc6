package main

// main is not called: the module is a library (a WASI reactor), which
// runs its package initialization in _initialize and then serves calls.
func main() {}

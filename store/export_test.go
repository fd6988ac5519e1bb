package store

// Refused is refused, for the external tests.
var Refused = refused

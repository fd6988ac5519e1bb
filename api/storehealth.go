package api

// storeDown is the 503 unavailable of an authenticated call refused because the service's database
// is unreachable (Deps.StoreHealth reports err, the private cause).
func storeDown(err error) *Error {
	return Errorf(CodeUnavailable, "the service's database is temporarily unreachable; retry shortly").WithCause(err)
}

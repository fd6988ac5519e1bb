package migrations

// ApplyDir exposes applyDir to the external tests, which import storetest (and so this package).
var ApplyDir = applyDir

// VersionTable exposes the version table's name to the external tests.
const VersionTable = versionTable

// EmbeddedDir exposes embeddedDir to the external tests.
var EmbeddedDir = embeddedDir

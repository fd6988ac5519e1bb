package api

import (
	"encoding/json"
	"reflect"

	"github.com/danielgtaylor/huma/v2"
)

// Values that differ by chain family (a transaction entry, a quote) have a schema per family, told
// apart by their kind property (evm or solana, as GET /v1/chains names the families); the value's
// schema is their oneOf with kind as discriminator, which generated clients turn into a union type.

// kindOneOf registers the component schema name, a value that is one of evm or solana (the
// component schemas of their Go types, named as given), and returns a reference to it. (Huma inlines
// the schema of a type that provides its own; a union is worth a name of its own in clients.)
func kindOneOf(r huma.Registry, name, description string, evm reflect.Type, evmName string, solana reflect.Type, solanaName string) *huma.Schema {
	const prefix = "#/components/schemas/"
	for t, n := range map[reflect.Type]string{evm: evmName, solana: solanaName} {
		r.Schema(t, true, n)
	}
	r.Map()[name] = &huma.Schema{
		Description: description,
		OneOf:       []*huma.Schema{{Ref: prefix + evmName}, {Ref: prefix + solanaName}},
		Discriminator: &huma.Discriminator{PropertyName: "kind", Mapping: map[string]string{
			"evm": prefix + evmName, "solana": prefix + solanaName}},
	}
	return &huma.Schema{Ref: prefix + name}
}

// marshalOne writes whichever of evm and solana is set (a nil pointer of the other).
func marshalOne[E, S any](evm *E, solana *S) ([]byte, error) {
	if evm != nil {
		return json.Marshal(evm)
	}
	return json.Marshal(solana)
}

// unmarshalOne reads data into evm or solana, by its kind.
func unmarshalOne[E, S any](data []byte, evm **E, solana **S) error {
	var k struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &k); err != nil {
		return err
	}
	if k.Kind == "solana" {
		*solana = new(S)
		return json.Unmarshal(data, *solana)
	}
	*evm = new(E)
	return json.Unmarshal(data, *evm)
}

package link

// Syscalls are the runtime functions a program may call by name: the SBPF loader of Agave 4
// registers each under Murmur3 of its name. An undefined symbol that is not here fails the link
// (it would be an unresolved symbol at deployment), which also catches a compiler libcall such as
// memcpy or __multi3 that the program forgot to provide.
var Syscalls = map[string]bool{
	"abort":                                 true,
	"sol_panic_":                            true,
	"sol_log_":                              true,
	"sol_log_64_":                           true,
	"sol_log_compute_units_":                true,
	"sol_log_pubkey":                        true,
	"sol_log_data":                          true,
	"sol_create_program_address":            true,
	"sol_try_find_program_address":          true,
	"sol_sha256":                            true,
	"sol_keccak256":                         true,
	"sol_get_clock_sysvar":                  true,
	"sol_get_epoch_schedule_sysvar":         true,
	"sol_get_rent_sysvar":                   true,
	"sol_memcpy_":                           true,
	"sol_memmove_":                          true,
	"sol_memcmp_":                           true,
	"sol_memset_":                           true,
	"sol_invoke_signed_c":                   true,
	"sol_invoke_signed_rust":                true,
	"sol_set_return_data":                   true,
	"sol_get_return_data":                   true,
	"sol_get_stack_height":                  true,
	"sol_remaining_compute_units":           true,
	"sol_get_processed_sibling_instruction": true,
}

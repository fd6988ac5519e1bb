// Package policy decides stage 4 of the request pipeline (DESIGN.md
// section 4): whether a consumer may call an operation from a source
// address. The three checks, in order of precedence, are the operation's
// scope, the operation's availability for the consumer, and the consumer's
// source allowlist.
//
// The decision is made by casbin with the model in model.conf. Policy is
// indexed so that a decision costs the same with ten or ten thousand
// consumers: the only p lines are the operation -> scope table; a
// consumer's scopes and disabled operations are role links (g, g2) and its
// CIDR allowlist is looked up by a Go function registered on the enforcer.
// Decisions are cached by casbin's cached enforcer in a bounded cache.
//
// Load builds a complete new casbin enforcer and swaps it in atomically, so
// concurrent Decide callers see either the old or the new policy, never a
// mix and never an empty one.
package policy

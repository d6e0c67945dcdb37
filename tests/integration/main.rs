//! The integration tests, in one binary: each file was its own test crate, and linking
//! seven binaries against the library dominated a cold `cargo test` on 2 cores.
//!
//! Run one group with `cargo test --test integration cli::` (the module name).

mod alloc;
mod auto_balance;
mod balance;
mod cli;
mod common;
mod counting;
mod determinism;
mod experiment;
mod ext_agents;
mod fuzz;
mod goofspiel;
mod hardening;
mod info;
mod play;
mod positions;
mod reliability;
mod report;
mod rerun;
mod rules_docs;
mod scale;
mod search;
mod skill_check;
mod solvers;
mod validation;

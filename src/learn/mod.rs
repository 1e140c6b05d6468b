//! The tools behind the learned evaluation: self-play data generation ([`datagen`],
//! which runs the search), the values another engine gives the same positions
//! ([`label`]) and the fit of the weights ([`train`]). They sit above the search, apart
//! from [`crate::eval`], which only evaluates.

pub mod datagen;
pub mod label;
pub mod train;

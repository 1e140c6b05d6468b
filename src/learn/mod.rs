//! The tools behind the learned evaluation: self-play data generation ([`datagen`],
//! which runs the search), the values another engine gives the same positions
//! ([`label`]), the fit of the weights ([`train`]), of the experimental network ([`mlp`]) and of
//! the learned move ordering ([`order`]), and how well values choose among a position's
//! children ([`siblings`]). They sit above the search, apart
//! from [`crate::eval`], which only evaluates.

pub mod datagen;
pub mod judge;
pub mod label;
pub mod mlp;
pub mod order;
pub mod siblings;
pub mod train;

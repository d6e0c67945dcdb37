pub mod endgame;

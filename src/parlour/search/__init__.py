"""Game-independent search and equilibrium pieces shared by the computer players."""

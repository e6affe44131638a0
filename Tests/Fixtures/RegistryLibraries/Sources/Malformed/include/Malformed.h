/* Malformed records only, for the diagnostics tests. */

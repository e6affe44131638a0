/* The host executable's own annotations live in annotations.c. */

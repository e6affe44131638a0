/* Plugin A's annotations live in annotations.c. */

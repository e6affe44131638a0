/* Plugin B's annotations live in annotations.c. */

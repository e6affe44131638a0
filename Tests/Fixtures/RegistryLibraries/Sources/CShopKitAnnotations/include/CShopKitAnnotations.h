/* The annotations of ShopKit live in annotations.c; this target exports nothing. */

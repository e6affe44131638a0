/* The annotations are records in annotations.c; nothing to declare. */

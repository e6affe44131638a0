/* The Reviews plugin's annotations live in annotations.c; this target has no API. */

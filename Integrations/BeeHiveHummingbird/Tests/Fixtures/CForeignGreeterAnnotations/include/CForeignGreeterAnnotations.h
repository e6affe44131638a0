/* The ForeignGreeter plugin's annotations live in annotations.c; this target has no API. */

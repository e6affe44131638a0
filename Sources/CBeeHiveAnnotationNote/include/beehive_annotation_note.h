/* Nothing to call: the target only carries the note that locates the Swift annotation macros' records. */

/* Declares Shared.TwiceModule, as DuplicateB does. */

/* Declares Shared.TwiceModule, as DuplicateA does. */

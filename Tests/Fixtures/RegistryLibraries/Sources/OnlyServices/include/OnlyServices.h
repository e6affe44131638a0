/* Services only: no modules, routes or targets. */

#include <libelf.h>
#include <gelf.h>

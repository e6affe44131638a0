/*
 * A C plugin for PluginCompatibilityTests: one service record and, built with -DCOMPAT_MARKER='"path"', a
 * constructor that creates that file, so that a test can tell whether the loader ever ran it. Built against copies of
 * beehive.h that differ in the note they write, and linked with libBeeHive.so or not. Built with
 * -DCOMPAT_COPIED_DESCRIPTOR='"$s...Mn"', it exports a symbol named as that Swift type descriptor: to the check
 * before dlopen, a plugin carrying its own copy of the descriptor's module.
 */
#include <beehive.h>
#include <fcntl.h>
#include <unistd.h>

BeeHiveService(Compat.Service, Compat.ServiceImpl)

#ifdef COMPAT_MARKER
__attribute__((constructor)) static void compat_loaded(void) {
    int fd = open(COMPAT_MARKER, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
}
#endif

#ifdef COMPAT_COPIED_DESCRIPTOR
const char compat_copied_descriptor[4] __asm__(COMPAT_COPIED_DESCRIPTOR) = {0};
#endif

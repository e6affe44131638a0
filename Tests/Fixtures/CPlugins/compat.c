/*
 * A C plugin for PluginCompatibilityTests: one service record and, built with -DCOMPAT_MARKER='"path"', a
 * constructor that creates that file, so that a test can tell whether the loader ever ran it. Built against copies of
 * beehive.h that differ in the note they write, and linked with libBeeHive.so or not.
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

/* The stand-in app's annotations: six modules, six services and six routes, all naming real Swift types. */
#ifndef STARTUP_ANNOTATIONS_H
#define STARTUP_ANNOTATIONS_H
int startup_annotations_count(void);
#endif

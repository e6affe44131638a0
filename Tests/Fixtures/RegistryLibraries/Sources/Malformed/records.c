/*
 * Records the parser must refuse, written the way a hand-made or corrupt record would reach a section: raw
 * char arrays with the same attributes as the macros. The one well-formed annotation also gives the object
 * the BeeHive note, without which discovery would never open it.
 */
#include <beehive.h>

#define RAW_RECORD(section_name, variable, text) \
    __attribute__((used, retain, section(section_name), aligned(1))) static const char variable[] = text;

#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10
#define X1000 X100 X100 X100 X100 X100 X100 X100 X100 X100 X100

BeeHiveMod(Malformed.GoodModule)

/* 21 + 5000 = 5021 bytes, over the 4096-byte limit. */
RAW_RECORD("beehive_mods", oversized, "beehive:1|module|Big." X1000 X1000 X1000 X1000 X1000)
RAW_RECORD("beehive_mods", future_version, "beehive:2|module|Future.Module")
RAW_RECORD("beehive_mods", not_utf8, "beehive:1|module|Bad.\xff\xfe" "Name")
RAW_RECORD("beehive_mods", bad_name, "beehive:1|module|Bad Name")
RAW_RECORD("beehive_mods", bad_level, "beehive:1|module|Bad.Level|level=extreme")
RAW_RECORD("beehive_mods", unknown_key, "beehive:1|module|Bad.Key|colour=red")
RAW_RECORD("beehive_mods", misplaced, "beehive:1|route|/misplaced|Bad.Handler")
RAW_RECORD("beehive_services", named_without_name, "beehive:1|service|Bad.Protocol|Bad.Service|scope=named|name=")
RAW_RECORD("beehive_routes", no_version, "hello world")

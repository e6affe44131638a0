/* A library exporting symbols named as Swift type and protocol descriptors, as a plugin that carries a copy of
   Swift modules does: the linkage reader lists each module once. Also names that only look like them. */
const char descriptor_a[4] __asm__("$s11Hummingbird6RouterCMn") = {0};
const char descriptor_b[4] __asm__("$s11Hummingbird8ResponseVMn") = {0};
const char descriptor_c[4] __asm__("$s14ShopInterfaces7CatalogMp") = {0};
const char not_a_descriptor[4] __asm__("$s11Hummingbird6RouterCN") = {0};
const char too_long[4] __asm__("$s999Hummingbird6RouterCMn") = {0};
const char cut_short[4] __asm__("$s40ShortMn") = {0};
/* A conformance compiled against a protocol that another library defines: its witness table (local, so in
   .symtab only), three words long, and that protocol's descriptor, imported. */
extern const char imported_protocol[] __asm__("$s6Shared8GreetingMp");
__attribute__((used)) static const void *const witness_table[3] __asm__("$s6Plugin5HelloC6Shared8GreetingAAWP") = {
    imported_protocol, 0, 0};

# Snooping coherence protocols (docs/COHERENCE.md): the Murphi emitter and
# the Rumur model check. Included at the end of the Makefile.

# The emitter links the library like stcsim does; its main lives in tools/
# so the library stays free of main().
$(B)/gcc/stcmurphi: tools/stcmurphi.c $(LIB_HDR) $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) | $(B)/gcc
	gcc $(CFLAGS_COMMON) $(OPT) -g -Iref -o $@ $< $(LIB_SRC:ref/%.c=$(B)/gcc/obj/%.o) -lzstd -lz -lm

.PHONY: coherence-check
# Every protocol at 2-4 caches (MSI also 5), every deliberately broken table,
# and the tables in docs/COHERENCE.md against the generated ones.
coherence-check: $(B)/gcc/stcmurphi
	@scripts/ensure-tools.sh rumur:rumur
	tests/coherence-check.sh $(B)/gcc/stcmurphi

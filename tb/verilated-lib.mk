# verilated-lib.mk - run inside a Verilator --Mdir: build the model's
# library and Verilator's runtime, list them in objs.txt and the compiler
# flags of Verilator's headers in cppflags.txt, for tb/lockstep.mk, which
# compiles the C++ shim and links it with the C harness and the model.
#
# RUNTIME_DIR=DIR: take Verilator's runtime objects from DIR (another
# tag's Mdir, built with the same Verilator flags) instead of compiling
# them again: they do not depend on the model.
VTOP ?= Vstc_cache
include $(VTOP).mk
RUNTIME_OBJS := $(if $(RUNTIME_DIR),$(addprefix $(RUNTIME_DIR)/,$(VK_GLOBAL_OBJS)),$(addprefix $(CURDIR)/,$(VK_GLOBAL_OBJS)))
lockstep-lib: $(if $(RUNTIME_DIR),,$(VK_GLOBAL_OBJS)) $(VM_PREFIX)__ALL.a
	echo $(RUNTIME_OBJS) $(CURDIR)/$(VM_PREFIX)__ALL.a >objs.txt
	echo $(CPPFLAGS) -I$(CURDIR) >cppflags.txt

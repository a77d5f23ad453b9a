# verilated-lib.mk - run inside a Verilator --Mdir: build the model's
# library and Verilator's runtime, list them in objs.txt and the compiler
# flags of Verilator's headers in cppflags.txt, for tb/lockstep.mk, which
# compiles the C++ shim and links it with the C harness and the model.
VTOP ?= Vstc_cache
include $(VTOP).mk
lockstep-lib: $(VK_GLOBAL_OBJS) $(VM_PREFIX)__ALL.a
	echo $(addprefix $(CURDIR)/,$(VK_GLOBAL_OBJS) $(VM_PREFIX)__ALL.a) >objs.txt
	echo $(CPPFLAGS) -I$(CURDIR) >cppflags.txt

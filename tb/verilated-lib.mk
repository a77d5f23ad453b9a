# verilated-lib.mk - run inside a Verilator --Mdir: build the model's
# library, Verilator's runtime and the C++ shim, and list them in objs.txt
# for tb/lockstep.mk's link (which also links the C harness and the model).
include Vstc_cache.mk
lockstep-lib: $(VK_USER_OBJS) $(VK_GLOBAL_OBJS) $(VM_PREFIX)__ALL.a
	echo $(addprefix $(CURDIR)/,$(VK_USER_OBJS) $(VK_GLOBAL_OBJS) $(VM_PREFIX)__ALL.a) >objs.txt

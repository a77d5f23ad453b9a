/*
 * crt0.S - start-up code of the example SoC's programs
 *
 * The core starts here at address 0 with every register undefined (its
 * register file has no reset): set gp (small data), sp (top of RAM, from
 * link.ld), tp (picolibc's thread-local block); copy .data if its load
 * address differs from its run address (not here: the image is loaded
 * into RAM in place); zero .tbss and .bss; run main; pass its return
 * value to _exit (soc.c), which writes the console's EXIT register and
 * stops the core.
 */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      tp, __tls_base

    la      t0, __data_source
    la      t1, __data_start
    la      t2, __data_end
    beq     t0, t1, 2f
1:  bgeu    t1, t2, 2f
    lw      t3, 0(t0)
    sw      t3, 0(t1)
    addi    t0, t0, 4
    addi    t1, t1, 4
    j       1b

2:  la      t1, __zero_start
    la      t2, __bss_end
3:  bgeu    t1, t2, 4f
    sw      zero, 0(t1)
    addi    t1, t1, 4
    j       3b

4:  li      a0, 0
    li      a1, 0
    call    main
    call    _exit
5:  j       5b

/* SPDX-License-Identifier: ISC */
/*
 * The port table's later rows (port_table.h holds the first ones and the
 * field guide): the live-play ports, the MOD CV twins and the readouts
 * added since, in port index order after P_NOTE_LENGTH.  Kept apart so
 * each file of the table can be read whole; a new row goes to the END of
 * this list.
 */
#ifndef PENDULA_PORT_TABLE_LIVE_H
#define PENDULA_PORT_TABLE_LIVE_H

// clang-format off
#define PENDULA_PORTS_LIVE(X) \
	X(P_MEM_SLOT, .symbol = "mem_slot", .name = "Memory slot", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PLAY, \
	  .min = 1, .max = 8, .def = 1, .unit = PU_SLOT, .flags = PF_INTEGER, \
	  .doc = "The memory that mem_store and mem_recall use") \
	X(P_MEM_STORE, .symbol = "mem_store", .name = "Store memory", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PLAY, \
	  .min = 0, .max = 1, .def = 0, .unit = PU_SWITCH, .flags = PF_TOGGLED | PF_TRIGGER, \
	  .doc = "A rising edge stores the motion of this frame in the memory slot") \
	X(P_MEM_RECALL, .symbol = "mem_recall", .name = "Recall memory", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PLAY, \
	  .min = 0, .max = 1, .def = 0, .unit = PU_SWITCH, .flags = PF_TOGGLED | PF_TRIGGER, \
	  .doc = "A rising edge puts the motion stored in the memory slot back") \
	X(P_MEM_GLIDE, .symbol = "mem_glide", .name = "Recall glide", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PLAY, \
	  .min = 0, .max = 1000, .def = 10, .unit = PU_MS, \
	  .doc = "Milliseconds over which the outputs cross-fade to a recalled motion") \
	X(P_MEM_NOTE, .symbol = "mem_note", .name = "Memory note", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PLAY, \
	  .min = -1, .max = 120, .def = -1, .unit = PU_NOTE, .flags = PF_INTEGER, \
	  .doc = "MIDI note that recalls memory 1; the next seven recall memories 2 to 8 (-1 = off)") \
	X(P_PLUCK_ENERGY, .symbol = "pluck_energy", .name = "Pluck energy", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PLAY, \
	  .min = 0, .max = 2, .def = 0, .unit = PU_NORM, \
	  .doc = "Normalised energy a note-on of velocity 127 adds to the motion (0 = off)") \
	X(P_DRIVE, .symbol = "drive", .name = "Drive", .kind = PK_SIGNAL_IN, .models = PM_ALL, .group = PG_DRIVE, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Signal added to the pivot's acceleration, times drive_gain (unconnected: silence)") \
	X(P_DRIVE_GAIN, .symbol = "drive_gain", .name = "Drive gain", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PLAY, \
	  .min = 0, .max = 20, .def = 0, .unit = PU_G, .flags = PF_SMOOTH | PF_UI, .param = PP(drive_gain), .conv = PC_REAL, \
	  .doc = "Pivot acceleration per unit of the drive signal, in units of the set gravity (0 = off)") \
	X(P_DRIVE_AXIS, .symbol = "drive_axis", .name = "Drive axis", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PLAY, \
	  .min = 0, .max = 2, .def = 0, .unit = PU_CHOICE, .flags = PF_INTEGER | PF_ENUM, .param = PP(drive_axis), .conv = PC_INT, \
	  .doc = "Direction the drive shakes the pivot in") \
	X(P_NOTE_SCALE, .symbol = "note_scale", .name = "Note scale", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_EVENTS, \
	  .min = 0, .max = 7, .def = 0, .unit = PU_CHOICE, .flags = PF_INTEGER | PF_ENUM, \
	  .doc = "Fixed pitches, or the scale the event notes take their pitch from") \
	X(P_NOTE_ROOT, .symbol = "note_root", .name = "Scale root", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_EVENTS, \
	  .min = 0, .max = 11, .def = 0, .unit = PU_SEMITONE, .flags = PF_INTEGER | PF_ENUM, \
	  .doc = "Root of the scale (C = 0)") \
	X(P_NOTE_LOW, .symbol = "note_low", .name = "Lowest note", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_EVENTS, \
	  .min = 0, .max = 127, .def = 36, .unit = PU_NOTE, .flags = PF_INTEGER, \
	  .doc = "Lowest MIDI note of a scale's range") \
	X(P_NOTE_HIGH, .symbol = "note_high", .name = "Highest note", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_EVENTS, \
	  .min = 0, .max = 127, .def = 84, .unit = PU_NOTE, .flags = PF_INTEGER, \
	  .doc = "Highest MIDI note of a scale's range") \
	X(P_NOTE_GRID, .symbol = "note_grid", .name = "Note grid", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_EVENTS, \
	  .min = 0, .max = 4, .def = 0, .unit = PU_CHOICE, .flags = PF_INTEGER | PF_ENUM, \
	  .doc = "Event notes start on this grid of the host's beat (off: at once)") \
	X(P_VOLTS_THETA1, .symbol = "theta1_volts", .name = "Angle 1 (V)", .kind = PK_MOD_CV_OUT, .models = PM_EXCEPT(PM_3D), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_THETA1, \
	  .doc = "theta1 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_THETA2, .symbol = "theta2_volts", .name = "Angle 2 (V)", .kind = PK_MOD_CV_OUT, .models = PM_EXCEPT(PM_3D), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_THETA2, \
	  .doc = "theta2 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_THETA3, .symbol = "theta3_volts", .name = "Angle 3 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_THETA3, \
	  .doc = "theta3 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_THETA4, .symbol = "theta4_volts", .name = "Angle 4 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_THETA4, \
	  .doc = "theta4 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_THETA5, .symbol = "theta5_volts", .name = "Angle 5 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_THETA5, \
	  .doc = "theta5 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_THETA6, .symbol = "theta6_volts", .name = "Angle 6 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_THETA6, \
	  .doc = "theta6 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_TIP_X, .symbol = "tip_x_volts", .name = "Tip X (V)", .kind = PK_MOD_CV_OUT, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_TIP_X, \
	  .doc = "tip_x scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_TIP_Y, .symbol = "tip_y_volts", .name = "Tip Y (V)", .kind = PK_MOD_CV_OUT, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_TIP_Y, \
	  .doc = "tip_y scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_TIP_Z, .symbol = "tip_z_volts", .name = "Tip Z (V)", .kind = PK_MOD_CV_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_TIP_Z, \
	  .doc = "tip_z scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_X1, .symbol = "x1_volts", .name = "Direction X 1 (V)", .kind = PK_MOD_CV_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_X1, \
	  .doc = "x1 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Y1, .symbol = "y1_volts", .name = "Direction Y 1 (V)", .kind = PK_MOD_CV_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Y1, \
	  .doc = "y1 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Z1, .symbol = "z1_volts", .name = "Direction Z 1 (V)", .kind = PK_MOD_CV_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Z1, \
	  .doc = "z1 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_X, .symbol = "x_volts", .name = "Position X (V)", .kind = PK_MOD_CV_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_X, \
	  .doc = "x scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Y, .symbol = "y_volts", .name = "Position Y (V)", .kind = PK_MOD_CV_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Y, \
	  .doc = "y scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Z, .symbol = "z_volts", .name = "Position Z (V)", .kind = PK_MOD_CV_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Z, \
	  .doc = "z scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_ENERGY, .symbol = "energy_volts", .name = "Energy (V)", .kind = PK_MOD_CV_OUT, .models = PM_ALL, .group = PG_OUTPUTS, \
	  .min = 0, .max = 10, .unit = PU_VOLT, .related = P_OUT_ENERGY, \
	  .doc = "energy over energy_max (its CC range) as 0 to 10 V, clipped (a MOD CV port)") \
	X(P_VOLTS_OMEGA1, .symbol = "omega1_volts", .name = "Angular velocity 1 (V)", .kind = PK_MOD_CV_OUT, .models = PM_EXCEPT(PM(BEAD)), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA1, \
	  .doc = "omega1 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA2, .symbol = "omega2_volts", .name = "Angular velocity 2 (V)", .kind = PK_MOD_CV_OUT, .models = PM_EXCEPT(PM(BEAD)), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA2, \
	  .doc = "omega2 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA3, .symbol = "omega3_volts", .name = "Angular velocity 3 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA3, \
	  .doc = "omega3 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA4, .symbol = "omega4_volts", .name = "Angular velocity 4 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA4, \
	  .doc = "omega4 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA5, .symbol = "omega5_volts", .name = "Angular velocity 5 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA5, \
	  .doc = "omega5 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA6, .symbol = "omega6_volts", .name = "Angular velocity 6 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA6, \
	  .doc = "omega6 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_X1P, .symbol = "x1_volts", .name = "Direction X 1 (V)", .kind = PK_MOD_CV_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_X1P, \
	  .doc = "x1 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Y1P, .symbol = "y1_volts", .name = "Direction Y 1 (V)", .kind = PK_MOD_CV_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Y1P, \
	  .doc = "y1 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_X2, .symbol = "x2_volts", .name = "Direction X 2 (V)", .kind = PK_MOD_CV_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_X2, \
	  .doc = "x2 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Y2, .symbol = "y2_volts", .name = "Direction Y 2 (V)", .kind = PK_MOD_CV_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Y2, \
	  .doc = "y2 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Z2, .symbol = "z2_volts", .name = "Direction Z 2 (V)", .kind = PK_MOD_CV_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Z2, \
	  .doc = "z2 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_X3, .symbol = "x3_volts", .name = "Direction X 3 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_X3, \
	  .doc = "x3 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Y3, .symbol = "y3_volts", .name = "Direction Y 3 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Y3, \
	  .doc = "y3 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Z3, .symbol = "z3_volts", .name = "Direction Z 3 (V)", .kind = PK_MOD_CV_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Z3, \
	  .doc = "z3 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_X4, .symbol = "x4_volts", .name = "Direction X 4 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_X4, \
	  .doc = "x4 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Y4, .symbol = "y4_volts", .name = "Direction Y 4 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Y4, \
	  .doc = "y4 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Z4, .symbol = "z4_volts", .name = "Direction Z 4 (V)", .kind = PK_MOD_CV_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Z4, \
	  .doc = "z4 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_X5, .symbol = "x5_volts", .name = "Direction X 5 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_X5, \
	  .doc = "x5 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Y5, .symbol = "y5_volts", .name = "Direction Y 5 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Y5, \
	  .doc = "y5 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_X6, .symbol = "x6_volts", .name = "Direction X 6 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_X6, \
	  .doc = "x6 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_Y6, .symbol = "y6_volts", .name = "Direction Y 6 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_Y6, \
	  .doc = "y6 scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_VX, .symbol = "vx_volts", .name = "Velocity X (V)", .kind = PK_MOD_CV_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_VX, \
	  .doc = "vx scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_VY, .symbol = "vy_volts", .name = "Velocity Y (V)", .kind = PK_MOD_CV_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_VY, \
	  .doc = "vy scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_VZ, .symbol = "vz_volts", .name = "Velocity Z (V)", .kind = PK_MOD_CV_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_VZ, \
	  .doc = "vz scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_FLIPS, .symbol = "flips_volts", .name = "Flips (V)", .kind = PK_MOD_CV_OUT, .models = PM_ALL, .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_FLIPS, \
	  .doc = "flips scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_SWINGS, .symbol = "swings_volts", .name = "Swings (V)", .kind = PK_MOD_CV_OUT, .models = PM_ALL, .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_SWINGS, \
	  .doc = "swings scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_OUT_ENERGY_LEVEL, .symbol = "energy_level", .name = "Energy level", .kind = PK_SIGNAL_OUT, .models = PM_ALL, .group = PG_OUTPUTS, \
	  .min = 0, .max = 1, .unit = PU_NORM, .related = P_CTL_ENERGY_LEVEL, .channel = PENDULA_CH_ENERGY_LEVEL, \
	  .doc = "Energy E as a / (1 + a), a = sqrt(E): 0 at rest, 0.5 reaches the top, toward 1 as the energy grows") \
	X(P_CTL_ENERGY_LEVEL, .symbol = "energy_level_ctl", .name = "Energy level (control)", .kind = PK_CONTROL_OUT, .models = PM_ALL, .group = PG_READOUTS, \
	  .min = 0, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of energy_level") \
	X(P_VOLTS_ENERGY_LEVEL, .symbol = "energy_level_volts", .name = "Energy level (V)", .kind = PK_MOD_CV_OUT, .models = PM_ALL, .group = PG_OUTPUTS, \
	  .min = 0, .max = 10, .unit = PU_VOLT, .related = P_OUT_ENERGY_LEVEL, \
	  .doc = "energy_level scaled from its range onto 0 to 10 V (a MOD CV port)") \
	X(P_CTL_DRIVE_LEVEL, .symbol = "drive_level", .name = "Drive level", .kind = PK_CONTROL_OUT, .models = PM_ALL, .group = PG_READOUTS, \
	  .min = 0, .max = 1, .unit = PU_COEF, \
	  .doc = "Peak magnitude of the drive signal over the last block, clamped to 1; 0 unconnected (shows that sound arrives even at drive_gain 0)") \
	X(P_OUT_OMEGA1_LEVEL, .symbol = "omega1_level", .name = "Angular velocity level 1", .kind = PK_SIGNAL_OUT, .models = PM_EXCEPT(PM(BEAD)), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA1_LEVEL, .channel = PENDULA_CH_W_LEVEL + 0, \
	  .doc = "omega1 before its clamp, v, as v / sqrt(1 + v^2): like omega1 in a small swing, 0.71 at the reference rate, 0.99 at 7 times it (0 beyond N)") \
	X(P_OUT_OMEGA2_LEVEL, .symbol = "omega2_level", .name = "Angular velocity level 2", .kind = PK_SIGNAL_OUT, .models = PM_EXCEPT(PM(BEAD)), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA2_LEVEL, .channel = PENDULA_CH_W_LEVEL + 1, \
	  .doc = "omega2 before its clamp, v, as v / sqrt(1 + v^2): like omega2 in a small swing, 0.71 at the reference rate, 0.99 at 7 times it (0 beyond N)") \
	X(P_OUT_OMEGA3_LEVEL, .symbol = "omega3_level", .name = "Angular velocity level 3", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA3_LEVEL, .channel = PENDULA_CH_W_LEVEL + 2, \
	  .doc = "omega3 before its clamp, v, as v / sqrt(1 + v^2): like omega3 in a small swing, 0.71 at the reference rate, 0.99 at 7 times it (0 beyond N)") \
	X(P_OUT_OMEGA4_LEVEL, .symbol = "omega4_level", .name = "Angular velocity level 4", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA4_LEVEL, .channel = PENDULA_CH_W_LEVEL + 3, \
	  .doc = "omega4 before its clamp, v, as v / sqrt(1 + v^2): like omega4 in a small swing, 0.71 at the reference rate, 0.99 at 7 times it (0 beyond N)") \
	X(P_OUT_OMEGA5_LEVEL, .symbol = "omega5_level", .name = "Angular velocity level 5", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA5_LEVEL, .channel = PENDULA_CH_W_LEVEL + 4, \
	  .doc = "omega5 before its clamp, v, as v / sqrt(1 + v^2): like omega5 in a small swing, 0.71 at the reference rate, 0.99 at 7 times it (0 beyond N)") \
	X(P_OUT_OMEGA6_LEVEL, .symbol = "omega6_level", .name = "Angular velocity level 6", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA6_LEVEL, .channel = PENDULA_CH_W_LEVEL + 5, \
	  .doc = "omega6 before its clamp, v, as v / sqrt(1 + v^2): like omega6 in a small swing, 0.71 at the reference rate, 0.99 at 7 times it (0 beyond N)") \
	X(P_CTL_OMEGA1_LEVEL, .symbol = "omega1_level_ctl", .name = "Angular velocity level 1 (control)", .kind = PK_CONTROL_OUT, .models = PM_EXCEPT(PM(BEAD)), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega1_level") \
	X(P_CTL_OMEGA2_LEVEL, .symbol = "omega2_level_ctl", .name = "Angular velocity level 2 (control)", .kind = PK_CONTROL_OUT, .models = PM_EXCEPT(PM(BEAD)), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega2_level") \
	X(P_CTL_OMEGA3_LEVEL, .symbol = "omega3_level_ctl", .name = "Angular velocity level 3 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega3_level") \
	X(P_CTL_OMEGA4_LEVEL, .symbol = "omega4_level_ctl", .name = "Angular velocity level 4 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega4_level") \
	X(P_CTL_OMEGA5_LEVEL, .symbol = "omega5_level_ctl", .name = "Angular velocity level 5 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega5_level") \
	X(P_CTL_OMEGA6_LEVEL, .symbol = "omega6_level_ctl", .name = "Angular velocity level 6 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega6_level") \
	X(P_VOLTS_OMEGA1_LEVEL, .symbol = "omega1_level_volts", .name = "Angular velocity level 1 (V)", .kind = PK_MOD_CV_OUT, .models = PM_EXCEPT(PM(BEAD)), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA1_LEVEL, \
	  .doc = "omega1_level scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA2_LEVEL, .symbol = "omega2_level_volts", .name = "Angular velocity level 2 (V)", .kind = PK_MOD_CV_OUT, .models = PM_EXCEPT(PM(BEAD)), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA2_LEVEL, \
	  .doc = "omega2_level scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA3_LEVEL, .symbol = "omega3_level_volts", .name = "Angular velocity level 3 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA3_LEVEL, \
	  .doc = "omega3_level scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA4_LEVEL, .symbol = "omega4_level_volts", .name = "Angular velocity level 4 (V)", .kind = PK_MOD_CV_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA4_LEVEL, \
	  .doc = "omega4_level scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA5_LEVEL, .symbol = "omega5_level_volts", .name = "Angular velocity level 5 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA5_LEVEL, \
	  .doc = "omega5_level scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_VOLTS_OMEGA6_LEVEL, .symbol = "omega6_level_volts", .name = "Angular velocity level 6 (V)", .kind = PK_MOD_CV_OUT, .models = PM(CHAIN), .not_cv = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -5, .max = 5, .unit = PU_VOLT, .related = P_OUT_OMEGA6_LEVEL, \
	  .doc = "omega6_level scaled from its range onto -5 to 5 V (a MOD CV port)") \
	X(P_CC_OMEGA1_LEVEL, .symbol = "cc_omega1_level", .name = "CC for angular velocity level 1", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA1_LEVEL, \
	  .doc = "Controller number omega1_level is sent on (-1 = off)") \
	X(P_CC_OMEGA2_LEVEL, .symbol = "cc_omega2_level", .name = "CC for angular velocity level 2", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA2_LEVEL, \
	  .doc = "Controller number omega2_level is sent on (-1 = off)") \
	X(P_CC_OMEGA3_LEVEL, .symbol = "cc_omega3_level", .name = "CC for angular velocity level 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA3_LEVEL, \
	  .doc = "Controller number omega3_level is sent on (-1 = off)") \
	X(P_CC_OMEGA4_LEVEL, .symbol = "cc_omega4_level", .name = "CC for angular velocity level 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA4_LEVEL, \
	  .doc = "Controller number omega4_level is sent on (-1 = off)") \
	X(P_CC_OMEGA5_LEVEL, .symbol = "cc_omega5_level", .name = "CC for angular velocity level 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA5_LEVEL, \
	  .doc = "Controller number omega5_level is sent on (-1 = off)") \
	X(P_CC_OMEGA6_LEVEL, .symbol = "cc_omega6_level", .name = "CC for angular velocity level 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA6_LEVEL, \
	  .doc = "Controller number omega6_level is sent on (-1 = off)")
// clang-format on

#endif

-- SPDX-License-Identifier: ISC
-- Counts the MIDI events that reach it, for tests/scripts/ardour/session.lua:
-- shared memory ints 0, 1, 2 = note-ons, note-offs, control changes; ints
-- 3 .. 6 = the notes that sounded (note n: bit n % 32 of int 3 + n // 32).
ardour {
	["type"]    = "dsp",
	name        = "Pendula test MIDI counter",
	category    = "Utility",
	license     = "ISC",
	author      = "Pendula tests",
	description = [[Counts the MIDI events that reach it (note-on, note-off, control change) for the Pendula Ardour test]]
}

function dsp_ioconfig ()
	return { { midi_in = 1, midi_out = 1, audio_in = -1, audio_out = -1}, }
end

function dsp_init (rate)
	self:shmem():allocate(8)
	for i = 0, 7 do self:shmem():atomic_set_int(i, 0) end
end

function dsp_configure (ins, outs)
	n_out = outs
end

function dsp_runmap (bufs, in_map, out_map, n_samples, offset)
	ARDOUR.DSP.process_map (bufs, n_out, in_map, out_map, n_samples, offset)
	local ib = in_map:get (ARDOUR.DataType ("midi"), 0)
	if ib == ARDOUR.ChanMapping.Invalid then return end
	local shm = self:shmem()
	for _, e in pairs (bufs:get_midi (ib):table ()) do
		local ev = e:buffer():array()
		local st = ev[1] & 0xf0
		local slot = -1
		if st == 0x90 and ev[3] > 0 then slot = 0
		elseif st == 0x80 or (st == 0x90 and ev[3] == 0) then slot = 1
		elseif st == 0xb0 then slot = 2 end
		if slot >= 0 then shm:atomic_set_int(slot, shm:atomic_get_int(slot) + 1) end
		if slot == 0 then
			local word = 3 + (ev[2] >> 5)
			shm:atomic_set_int(word, shm:atomic_get_int(word) | (1 << (ev[2] & 31)))
		end
	end
end

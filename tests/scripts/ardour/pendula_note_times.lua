-- SPDX-License-Identifier: ISC
-- Records when the note-ons that reach it while the transport rolls start
-- (Pendula's motion, and its notes, go on while the transport stands: those
-- are not on any grid), for tests/scripts/ardour/grid.lua: shared memory int 0 = note-ons seen, ints
-- 1 .. 4 = the notes (note n: bit n % 32 of int 1 + n // 32), ints 5 .. 68 =
-- the first 64 note-ons' frames, counted from this processor's first cycle
-- (the distance between two of them is exact, whatever the transport does).
ardour {
	["type"]    = "dsp",
	name        = "Pendula test note times",
	category    = "Utility",
	license     = "ISC",
	author      = "Pendula tests",
	description = [[Records the frames of the note-ons that reach it, for the Pendula Ardour test]]
}

function dsp_ioconfig ()
	return { { midi_in = 1, midi_out = 1, audio_in = -1, audio_out = -1}, }
end

function dsp_init (rate)
	self:shmem():allocate(69)
	for i = 0, 68 do self:shmem():atomic_set_int(i, 0) end
	pos = 0
end

function dsp_configure (ins, outs)
	n_out = outs
end

function dsp_runmap (bufs, in_map, out_map, n_samples, offset)
	ARDOUR.DSP.process_map (bufs, n_out, in_map, out_map, n_samples, offset)
	local ib = in_map:get (ARDOUR.DataType ("midi"), 0)
	if ib == ARDOUR.ChanMapping.Invalid or not Session:transport_rolling () then
		pos = pos + n_samples
		return
	end
	local shm = self:shmem()
	for _, e in pairs (bufs:get_midi (ib):table ()) do
		local ev = e:buffer():array()
		if (ev[1] & 0xf0) == 0x90 and ev[3] > 0 then
			local n = shm:atomic_get_int(0)
			if n < 64 then shm:atomic_set_int(5 + n, pos + e:time()) end
			shm:atomic_set_int(0, n + 1)
			local word = 1 + (ev[2] >> 5)
			shm:atomic_set_int(word, shm:atomic_get_int(word) | (1 << (ev[2] & 31)))
		end
	end
	pos = pos + n_samples
end

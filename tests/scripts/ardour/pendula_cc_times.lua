-- SPDX-License-Identifier: ISC
-- Records, for tests/scripts/ardour/memory.lua, what reaches it while the
-- transport rolls: shared memory int 0 = control changes on controller 1
-- seen, int 1 = the frame of the first note-on (-1: none), ints 2 .. 4001 =
-- the first 4000 control changes as frame * 128 + value; frames count from
-- this processor's first rolling cycle.
ardour {
	["type"]    = "dsp",
	name        = "Pendula test CC times",
	category    = "Utility",
	license     = "ISC",
	author      = "Pendula tests",
	description = [[Records the control changes and the first note-on that reach it, for the Pendula Ardour test]]
}

function dsp_ioconfig ()
	return { { midi_in = 1, midi_out = 1, audio_in = -1, audio_out = -1}, }
end

function dsp_init (rate)
	self:shmem():allocate(4002)
	for i = 0, 4001 do self:shmem():atomic_set_int(i, 0) end
	self:shmem():atomic_set_int(1, -1)
	pos = 0
end

function dsp_configure (ins, outs)
	n_out = outs
end

function dsp_runmap (bufs, in_map, out_map, n_samples, offset)
	ARDOUR.DSP.process_map (bufs, n_out, in_map, out_map, n_samples, offset)
	local ib = in_map:get (ARDOUR.DataType ("midi"), 0)
	if ib == ARDOUR.ChanMapping.Invalid or not Session:transport_rolling () then return end
	local shm = self:shmem()
	for _, e in pairs (bufs:get_midi (ib):table ()) do
		local ev = e:buffer():array()
		local st = ev[1] & 0xf0
		if st == 0xb0 and ev[2] == 1 then
			local n = shm:atomic_get_int(0)
			if n < 4000 then shm:atomic_set_int(2 + n, (pos + e:time()) * 128 + ev[3]) end
			shm:atomic_set_int(0, n + 1)
		elseif st == 0x90 and ev[3] > 0 and shm:atomic_get_int(1) < 0 then
			shm:atomic_set_int(1, pos + e:time())
		end
	end
	pos = pos + n_samples
end

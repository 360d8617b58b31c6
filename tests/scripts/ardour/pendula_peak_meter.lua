-- SPDX-License-Identifier: ISC
-- The largest absolute sample that passes it, over every channel, for
-- tests/scripts/ardour/master.lua: shared memory float 0.
ardour {
	["type"]    = "dsp",
	name        = "Pendula test peak meter",
	category    = "Utility",
	license     = "ISC",
	author      = "Pendula tests",
	description = [[Largest absolute sample that passes, over every channel]]
}
function dsp_ioconfig ()
	return { { audio_in = -1, audio_out = -1}, }
end
function dsp_init (rate)
	self:shmem():allocate(2)
	self:shmem():clear()
end
function dsp_configure (ins, outs)
	n_out = outs
end
function dsp_runmap (bufs, in_map, out_map, n_samples, offset)
	ARDOUR.DSP.process_map (bufs, n_out, in_map, out_map, n_samples, offset)
	local peak = self:shmem():to_float(0):array()
	for c = 1, n_out:n_audio() do
		local ob = out_map:get (ARDOUR.DataType ("audio"), c - 1)
		if ob ~= ARDOUR.ChanMapping.Invalid then
			local _, lo, hi = table.unpack (ARDOUR.DSP.peaks (bufs:get_audio (ob):data (offset), 0, 0, n_samples))
			local m = math.max (-lo, hi)
			if m > peak[1] then peak[1] = m end
		end
	end
end

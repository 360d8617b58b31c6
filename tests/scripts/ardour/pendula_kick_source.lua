-- SPDX-License-Identifier: ISC
-- A kick drum for tests/scripts/ardour/drive.lua: at 120 bpm, a sine gliding
-- from 200 Hz to 50 Hz, decaying over 0.15 s (the kick pendula-render's
-- --drive-kick plays, tools/render_drive.c), on every audio output.
ardour {
	["type"]    = "dsp",
	name        = "Pendula test kick",
	category    = "Utility",
	license     = "ISC",
	author      = "Pendula tests",
	description = [[Plays a kick drum at 120 bpm, for the Pendula Ardour test]]
}

function dsp_ioconfig ()
	return { { audio_in = -1, audio_out = -1}, }
end

function dsp_init (rate)
	srate = rate
	pos = 0
end

function dsp_run (ins, outs, n_samples)
	local period = srate // 2
	for c = 1, #outs do
		local a = outs[c]:array()
		for i = 1, n_samples do
			local tau = ((pos + i - 1) % period) / srate
			local phase = 2 * math.pi * (50 * tau + 3 * (1 - math.exp(-tau / 0.03)))
			a[i] = math.sin(phase) * math.exp(-tau / 0.15)
		end
	end
	pos = pos + n_samples
end

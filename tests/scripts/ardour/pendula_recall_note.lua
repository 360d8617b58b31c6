-- SPDX-License-Identifier: ISC
-- A MIDI source for tests/scripts/ardour/memory.lua: note 60 at velocity
-- 100 once, 2.5 s after the transport starts rolling, its note-off 0.1 s
-- later (a note in a MIDI region that recalls a memory).
ardour {
	["type"]    = "dsp",
	name        = "Pendula test recall note",
	category    = "Utility",
	license     = "ISC",
	author      = "Pendula tests",
	description = [[Plays note 60 once, 2.5 s into the roll, for the Pendula Ardour test]]
}

function dsp_ioconfig ()
	return { { midi_in = 1, midi_out = 1, audio_in = 0, audio_out = 0}, }
end

function dsp_init (rate)
	srate = rate
	pos = 0
end

function dsp_run (_, _, n_samples)
	if not Session:transport_rolling () then return end
	local on, off = srate * 5 // 2, srate * 5 // 2 + srate // 10
	local m = 1
	for i = 1, n_samples do
		local p = pos + i - 1
		if p == on then
			midiout[m] = { time = i, data = { 0x90, 60, 100 } }
			m = m + 1
		elseif p == off then
			midiout[m] = { time = i, data = { 0x80, 60, 0 } }
			m = m + 1
		end
	end
	pos = pos + n_samples
end

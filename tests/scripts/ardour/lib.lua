-- SPDX-License-Identifier: ISC
--
-- What the Ardour test scripts (tests/scripts/ardour/*.lua) share; each
-- loads it with dofile from its own folder.

-- Prints "ok: WHAT" or "FAIL: WHAT"; T.fails counts the failures.
T = { fails = 0 }
function T.check(ok, what)
	print((ok and "ok: " or "FAIL: ") .. what)
	if not ok then T.fails = T.fails + 1 end
end

-- The Dummy backend, started (headless: no sound card).
function T.start_engine()
	AudioEngine:set_backend("None (Dummy)", "", "")
	AudioEngine:start(false)
end

-- A MIDI track NAME with a MIDI input and two audio outputs, strict I/O on.
function T.midi_track(s, name)
	local midi, audio = ARDOUR.DataType("midi"), ARDOUR.DataType("audio")
	local tl = s:new_midi_track(ARDOUR.ChanCount(midi, 1), ARDOUR.ChanCount(audio, 2), true,
		ARDOUR.PluginInfo(), nil, nil, 1, name, ARDOUR.PresentationInfo.max_order,
		ARDOUR.TrackMode.Normal, true)
	return tl, tl:front()
end

-- The number Ardour's set/get_plugin_insert_param take for the plugin's
-- control input LABEL (its lv2:name), or nil.
function T.control(pl, label)
	for i = 0, pl:parameter_count() - 1 do
		local n, ok = pl:nth_parameter(i, false)
		if ok and pl:parameter_is_input(n) and pl:parameter_label(n) == label then return i end
	end
	return nil
end

-- Loads the preset LABEL Ardour lists for the plugin; checks it did.
function T.load_preset(pl, label)
	local found = false
	for pr in pl:get_info():get_presets(false):iter() do
		if pr.label == label then found = pl:load_preset(pr) end
	end
	T.check(found, "preset '" .. label .. "' loaded")
end

-- The last line the shell scripts wait for.
function T.done()
	print(T.fails == 0 and "ALL OK" or (T.fails .. " FAILED"))
end

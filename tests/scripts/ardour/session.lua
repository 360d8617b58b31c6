-- SPDX-License-Identifier: ISC
--
-- A Pendula plugin in a real Ardour session, headless (ardour7-lua, the
-- Dummy audio backend).  Run by tests/scripts/test_ardour.sh, in two processes
-- (Ardour 7.3's luasession crashes when one process loads a second session):
--
--   ardour7-lua session.lua create URI DIR [N=VALUE ...] [preset=LABEL]
--     makes a session in DIR with one MIDI track "Pendula": the plugin URI,
--     then the test's MIDI counter (pendula_midi_count.lua); loads every
--     preset Ardour lists for the plugin; sets the plugin's first control
--     input (time_scale in every Pendula plugin) to 0.5 and control input N
--     to VALUE for each N=VALUE; loads the preset LABEL last (its notes,
--     if it plays notes from the motion, must reach the counter); rolls
--     the transport for 1.5 s (3 s with a last preset); prints what
--     reached the counter; saves the session.
--   ardour7-lua session.lua reload URI DIR
--     loads the saved session and checks that the plugin and its setting
--     came back.
--
-- Every check prints "ok: ..." or "FAIL: ..."; the last line is "ALL OK"
-- or "N FAILED".  N is Ardour's index of a control input (the n-th control
-- input port, from 0).

local mode, uri, dir = arg[1], arg[2], arg[3]
local fails = 0
local function check(ok, what)
	print((ok and "ok: " or "FAIL: ") .. what)
	if not ok then fails = fails + 1 end
end

AudioEngine:set_backend("None (Dummy)", "", "")
AudioEngine:start(false)

if mode == "create" then
	local s = create_session(dir, "pendula", 48000)
	check(s ~= nil, "session created")
	local midi, audio = ARDOUR.DataType("midi"), ARDOUR.DataType("audio")
	local tl = s:new_midi_track(ARDOUR.ChanCount(midi, 1), ARDOUR.ChanCount(audio, 2), true,
		ARDOUR.PluginInfo(), nil, nil, 1, "Pendula", ARDOUR.PresentationInfo.max_order,
		ARDOUR.TrackMode.Normal, true)
	local tr = tl:front()
	local p = ARDOUR.LuaAPI.new_plugin(s, uri, ARDOUR.PluginType.LV2, "")
	check(not p:isnil(), "plugin " .. uri .. " instantiated")
	if p:isnil() then os.exit(1) end
	tr:add_processor_by_index(p, 0, nil, true)
	local counter = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test MIDI counter")
	check(not counter:isnil(), "the test's MIDI counter (pendula_midi_count.lua) loads")
	if counter:isnil() then os.exit(1) end
	tr:add_processor_by_index(counter, 1, nil, true)

	local pi = p:to_insert()
	local pl = pi:plugin(0)
	print("name: " .. pl:name() .. ", ports: " .. pl:parameter_count())
	local presets = pl:get_info():get_presets(false)
	print("presets: " .. presets:size())
	for pr in presets:iter() do
		check(pl:load_preset(pr), "preset '" .. pr.label .. "' loads")
	end

	local last_preset = nil
	for i = 4, #arg do
		last_preset = arg[i]:match("^preset=(.+)$") or last_preset
	end
	if last_preset then
		local found = false
		for pr in presets:iter() do
			if pr.label == last_preset then found = pl:load_preset(pr) end
		end
		check(found, "preset '" .. last_preset .. "' loaded last")
	end
	check(ARDOUR.LuaAPI.set_plugin_insert_param(pi, 0, 0.5), "time_scale set to 0.5")
	for i = 4, #arg do
		if not arg[i]:match("^preset=") then
			local n, v = arg[i]:match("^(%d+)=(.+)$")
			check(n ~= nil and ARDOUR.LuaAPI.set_plugin_insert_param(pi, tonumber(n), tonumber(v)),
				"control input " .. arg[i])
		end
	end

	s:request_transport_speed(1.0, ARDOUR.TransportRequestSource.TRS_UI)
	s:request_roll(ARDOUR.TransportRequestSource.TRS_UI)
	-- (3 s with a preset that plays notes: a few flips at half speed)
	ARDOUR.LuaAPI.usleep(last_preset and 3000000 or 1500000)
	check(s:transport_sample() > 24000, "the transport rolled (" .. s:transport_sample() .. " samples)")
	local shm = counter:to_insert():plugin(0):to_luaproc():shmem()
	local on, off, cc = shm:atomic_get_int(0), shm:atomic_get_int(1), shm:atomic_get_int(2)
	print("MIDI after Pendula: " .. on .. " note-on, " .. off .. " note-off, " .. cc .. " control changes")
	print("MIDI counts: " .. on .. " " .. off .. " " .. cc)
	local notes = {}
	for n = 0, 127 do
		if (shm:atomic_get_int(3 + (n >> 5)) >> (n & 31)) & 1 == 1 then notes[#notes + 1] = n end
	end
	print("notes played: " .. table.concat(notes, " "))
	check(cc > 0, "control changes reach the next plugin of the track")
	if last_preset then
		check(on > 0, "notes from the motion reach the next plugin of the track")
		check(off > 0 and off <= on, "their note-offs follow")
	end
	s:request_stop(false, false, ARDOUR.TransportRequestSource.TRS_UI)
	ARDOUR.LuaAPI.usleep(200000)
	s:save_state("", false, false, false, false, false)
	-- Lua must let go of the routes before the session closes (else
	-- Ardour 7.3 frees them after its engine, and crashes at exit).
	tl, tr, p, counter, pi, pl, presets, shm = nil, nil, nil, nil, nil, nil, nil, nil
	collectgarbage()
	close_session()
else
	local s = load_session(dir, "pendula")
	check(s ~= nil, "session reloaded")
	local r = s:route_by_name("Pendula")
	local p = r:nth_plugin(0)
	check(not p:isnil(), "plugin restored from the session")
	if not p:isnil() then
		local v = ARDOUR.LuaAPI.get_plugin_insert_param(p:to_insert(), 0, true)
		check(math.abs(v - 0.5) < 1e-6, "time_scale restored (" .. tostring(v) .. ")")
	end
	r, p = nil, nil
	collectgarbage()
	close_session()
end
print(fails == 0 and "ALL OK" or (fails .. " FAILED"))
